-- For the official PostgreSQL image (compose.yaml): its entrypoint runs this once, when the database volume is
-- new (/docker-entrypoint-initdb.d), with psql as the superuser `postgres`.
-- Pacebeat connects as `pacebeat`, no superuser, owner of the database `pacebeat` only (as in the embedded
-- mode), with the password POSTGRES_PASSWORD. The superuser then loses its password: it can no longer sign
-- in over the network, only inside the database container (`docker compose exec db psql -U postgres`).
\getenv pw POSTGRES_PASSWORD
create role pacebeat with login nosuperuser nocreatedb nocreaterole noreplication nobypassrls password :'pw';
create database pacebeat owner pacebeat;
alter role postgres with password null;
