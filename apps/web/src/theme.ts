import { createTheme } from '@mui/material/styles';

declare module '@mui/material/styles' {
  interface BreakpointOverrides {
    xxl: true;
  }
}

/** The display breakpoints of the spec (§9), in pixels. */
export const breakpoints = { xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920, xxl: 2560 } as const;

/** The theme's link colour (its primary), and a lighter one readable on a tooltip's dark grey. */
export const LINK_COLOUR = '#c2410c';
export const TOOLTIP_LINK_COLOUR = '#fdba74';

export const theme = createTheme({
  breakpoints: { values: breakpoints },
  palette: {
    primary: { main: LINK_COLOUR },
    secondary: { main: '#0f766e' },
    background: { default: '#f7f6f3', paper: '#ffffff' },
  },
  shape: { borderRadius: 10 },
  typography: {
    // System fonts: nothing is downloaded at run time.
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: {
      fontSize: '1.75rem',
      fontWeight: 700,
      lineHeight: 1.25,
      [`@media (min-width:${breakpoints.sm}px)`]: { fontSize: '2.25rem' },
    },
    h2: { fontSize: '1.25rem', fontWeight: 700, lineHeight: 1.3 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    // Links that are not MUI's Link (HTML from the server, in tooltips and texts) take the theme's colour,
    // not the browser's blue and purple.
    MuiCssBaseline: { styleOverrides: { a: { color: LINK_COLOUR } } },
    MuiTooltip: {
      styleOverrides: { tooltip: { '& a, & a:visited': { color: TOOLTIP_LINK_COLOUR } } },
    },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiAppBar: { defaultProps: { elevation: 0 } },
  },
});
