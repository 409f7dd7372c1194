import { createSvgIcon } from '@mui/material/utils';

/** A beat line: the app's mark (same drawing as public/favicon.svg). */
export const PacebeatLogo = createSvgIcon(
  <path
    d="M3 13h4l2-5 4 9 2.5-6 1.5 2h4"
    fill="none"
    stroke="currentColor"
    strokeWidth={2}
    strokeLinecap="round"
    strokeLinejoin="round"
  />,
  'PacebeatLogo',
);
