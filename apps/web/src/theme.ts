import { createTheme } from '@mui/material/styles';

declare module '@mui/material/styles' {
  interface BreakpointOverrides {
    xxl: true;
  }
}

/** The display breakpoints of the spec (§9), in pixels. */
export const breakpoints = { xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920, xxl: 2560 } as const;

export const theme = createTheme({
  breakpoints: { values: breakpoints },
  palette: {
    primary: { main: '#c2410c' },
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
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiAppBar: { defaultProps: { elevation: 0 } },
  },
});
