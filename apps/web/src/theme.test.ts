import { describe, expect, it } from 'vitest';
import { theme } from './theme.ts';

describe('theme', () => {
  it('has exactly the spec breakpoints (xs 0, sm 600, md 960, lg 1280, xl 1920, xxl 2560)', () => {
    expect(theme.breakpoints.values).toEqual({ xs: 0, sm: 600, md: 960, lg: 1280, xl: 1920, xxl: 2560 });
    expect(theme.breakpoints.keys).toEqual(['xs', 'sm', 'md', 'lg', 'xl', 'xxl']);
  });

  it('builds media queries for the xxl breakpoint', () => {
    expect(theme.breakpoints.up('xxl')).toBe('@media (min-width:2560px)');
    expect(theme.breakpoints.between('md', 'lg')).toBe('@media (min-width:960px) and (max-width:1279.95px)');
  });

  it('gives plain links the theme colour, and links in tooltips a light one readable on their grey', () => {
    const base = theme.components?.MuiCssBaseline?.styleOverrides as { a: { color: string } };
    expect(base.a.color).toBe(theme.palette.primary.main);
    const tip = theme.components?.MuiTooltip?.styleOverrides?.tooltip as Record<string, { color: string }>;
    expect(tip['& a, & a:visited']!.color).toBe('#fdba74');
  });
});
