// The admin page's calls: who may sign up, invitations, the counts. Admins only: the server
// refuses everyone else (and sudo mode), so the page asks only for an admin acting as themselves.
import type { InvitationBody, SignupMode } from '@pacebeat/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../api/query-keys.ts';
import { useSession } from '../session/session-context.ts';
import { useIsSetupAdmin } from '../setup/setup-queries.ts';

export function useAdminSignup() {
  const { api } = useSession();
  const admin = useIsSetupAdmin();
  return useQuery({
    queryKey: queryKeys.admin.signup,
    queryFn: () => api.call('admin.signup'),
    enabled: admin,
  });
}

export function useAdminWrites() {
  const { api } = useSession();
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.admin.signup });
  return {
    setMode: useMutation({
      mutationFn: (mode: SignupMode) => api.call('admin.setSignupMode', { body: { mode } }),
      onSuccess: (reply) => client.setQueryData(queryKeys.admin.signup, reply),
    }),
    invite: useMutation({
      mutationFn: (body: InvitationBody) => api.call('admin.invite', { body }),
      onSuccess: refresh,
    }),
    revoke: useMutation({
      mutationFn: (id: string) => api.call('admin.revokeInvitation', { params: { id } }),
      onSuccess: refresh,
    }),
  };
}
