import type { SpotifyAppSetupReply } from '@pacebeat/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { SETUP_PAGE as T } from './setup-texts.ts';

type SetupData = SpotifyAppSetupReply['data'];

/** The connect page at the address this page is open at: the redirect URI the admin needs first. */
export const pageRedirectUri = () => `${window.location.origin}/connect/spotify`;

export function RedirectUris({ data }: { data: SetupData }) {
  const here = pageRedirectUri();
  const accepted = data.redirect_uris.filter((r) => r.accepted);
  const mine = accepted.filter((r) => r.uri === here);
  const others = accepted.filter((r) => r.uri !== here);
  const refused = data.redirect_uris.filter((r) => !r.accepted);
  return (
    <Stack spacing={1}>
      {(mine.length > 0 ? mine : others).map((r) => (
        <CopyLine key={r.uri} text={r.uri} />
      ))}
      {mine.length > 0 && others.length > 0 && (
        <>
          <Typography variant="body2" color="text.secondary">
            {T.otherAddresses}
          </Typography>
          {others.map((r) => (
            <CopyLine key={r.uri} text={r.uri} />
          ))}
        </>
      )}
      {refused.length > 0 && (
        <Box>
          <Typography variant="body2" color="text.secondary">
            {T.refusedTitle}:
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {refused.map((r) => (
              <Typography component="li" variant="body2" color="text.secondary" key={r.uri}>
                <Box component="code" sx={{ wordBreak: 'break-all' }}>
                  {r.uri}
                </Box>
                : {r.problem}
              </Typography>
            ))}
          </Box>
        </Box>
      )}
    </Stack>
  );
}

/** A value to paste elsewhere, with a copy button (the clipboard needs a secure context: else by hand). */
export function CopyLine({ text }: { text: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  }
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
      <Box
        component="code"
        sx={{
          px: 1,
          py: 0.5,
          bgcolor: 'action.hover',
          borderRadius: 1,
          fontSize: '0.95rem',
          wordBreak: 'break-all',
          userSelect: 'all',
        }}
      >
        {text}
      </Box>
      <Button
        size="small"
        variant="outlined"
        onClick={() => void copy()}
        aria-label={`${copied === 'yes' ? T.copied : T.copy} ${text}`}
      >
        {copied === 'yes' ? T.copied : T.copy}
      </Button>
      {copied === 'no' && (
        <Typography variant="body2" color="text.secondary">
          {T.copyByHand}
        </Typography>
      )}
    </Stack>
  );
}
