import Avatar from '@mui/material/Avatar';
import SvgIcon from '@mui/material/SvgIcon';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useSession } from '../../session/session-context.ts';
import { LeaveSudoLink, SudoLink } from '../../session/sudo-navigation.tsx';
import { MUSIC_SERVICE } from '../../session/user-status.ts';
import { SETUP_PAGE } from '../../setup/setup-texts.ts';
import { ADMIN_PAGE } from '../../admin/admin-texts.ts';

/**
 * Who is signed in, and where they can go (spec §2: /logout and /disconnect/spotify; connect instead
 * when Spotify is not connected). In sudo mode it names the user being viewed and offers the way out.
 */
export default function AccountMenu() {
  const { user, sudo, services } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  if (!user) return null;
  const label = user.name.trim() || user.email;
  const connected = services[MUSIC_SERVICE]?.connected ?? false;
  const close = () => setAnchor(null);

  return (
    <>
      <Button
        color="inherit"
        aria-label={`Account: ${label}`}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ minWidth: 0, gap: 1, px: 1 }}
      >
        <Avatar aria-hidden sx={{ width: 30, height: 30, bgcolor: sudo ? 'info.dark' : 'primary.dark' }}>
          {/* An icon, not the name's first letter: the button's visible text must be part of its name. */}
          <SvgIcon fontSize="small">
            <path d="M12 12c2.21 0 4-1.79 4-4s-1.79-4-4-4-4 1.79-4 4 1.79 4 4 4zm0 2c-2.67 0-8 1.34-8 4v2h16v-2c0-2.66-5.33-4-8-4z" />
          </SvgIcon>
        </Avatar>
        <Box
          component="span"
          sx={{
            display: { xs: 'none', sm: 'inline' },
            maxWidth: 200,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
        >
          {label}
        </Box>
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem disabled sx={{ opacity: '1 !important' }}>
          <ListItemText
            primary={sudo ? `Viewing as ${label}` : `Signed in as ${label}`}
            secondary={user.email === label ? undefined : user.email}
          />
        </MenuItem>
        <Divider />
        {connected && (
          <MenuItem component={SudoLink} to="/paces" onClick={close}>
            Paces, filters and tempo chart
          </MenuItem>
        )}
        {connected && (
          <MenuItem component={SudoLink} to="/runs" onClick={close}>
            Runs: a playlist for a workout
          </MenuItem>
        )}
        {connected && (
          <MenuItem component={SudoLink} to="/excluded" onClick={close}>
            Excluded tracks
          </MenuItem>
        )}
        {connected ? (
          <MenuItem component={SudoLink} to={`/disconnect/${MUSIC_SERVICE}`} onClick={close}>
            Disconnect Spotify
          </MenuItem>
        ) : (
          <MenuItem component={SudoLink} to={`/connect/${MUSIC_SERVICE}`} onClick={close}>
            Connect Spotify
          </MenuItem>
        )}
        {user.is_admin && !sudo && (
          <MenuItem component={SudoLink} to="/setup/spotify" onClick={close}>
            {SETUP_PAGE.menuLink}
          </MenuItem>
        )}
        {user.is_admin && !sudo && (
          <MenuItem component={SudoLink} to="/admin" onClick={close}>
            {ADMIN_PAGE.menuLink}
          </MenuItem>
        )}
        {sudo && (
          <MenuItem component={LeaveSudoLink} onClick={close}>
            Leave sudo mode
          </MenuItem>
        )}
        <MenuItem component={SudoLink} to="/logout" onClick={close}>
          Log out
        </MenuItem>
      </Menu>
    </>
  );
}
