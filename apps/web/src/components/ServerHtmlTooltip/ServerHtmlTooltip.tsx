import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { createSvgIcon } from '@mui/material/utils';
import { useMemo } from 'react';
import { sanitizeTooltipHtml } from './sanitize.ts';

/** Material's "info outline" icon. */
const InfoIcon = createSvgIcon(
  <path d="M11 7h2v2h-2zm0 4h2v6h-2zm1-9C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2m0 18c-4.41 0-8-3.59-8-8s3.59-8 8-8 8 3.59 8 8-3.59 8-8 8" />,
  'InfoOutlined',
);

/**
 * An info icon whose tooltip shows HTML supplied by the server (spec §2: a source's `front_tooltip`),
 * sanitised first: the server escapes what came from Spotify, and the browser does not trust that.
 * A button, so it opens by keyboard focus and by touch as well as by hover.
 */
export function ServerHtmlTooltip({ html, label }: { html: string; label: string }) {
  const clean = useMemo(() => sanitizeTooltipHtml(html), [html]);
  return (
    <Tooltip
      title={<span data-testid="tooltip-html" dangerouslySetInnerHTML={{ __html: clean }} />}
      enterTouchDelay={0}
      leaveTouchDelay={6000}
      arrow
    >
      <IconButton size="small" aria-label={label} sx={{ p: 0.25, ml: 0.5, color: 'text.secondary' }}>
        <InfoIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
