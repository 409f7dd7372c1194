// The library line of the status page: a share under 1 % reads as such, not as "0 %" beside a count.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LibrarySummary } from './LibrarySummary.tsx';

const summary = (known: number, withTempo: number) => ({
  tracks_known: known,
  tracks_with_tempo: withTempo,
  tracks_without_tempo: known - withTempo,
});

describe('LibrarySummary', () => {
  it('says "<1 %" when some songs have a tempo but under 1 %, and the whole percent otherwise', () => {
    const { unmount } = render(<LibrarySummary summary={summary(1350, 11)} />);
    expect(screen.getByTestId('library-summary').textContent).toBe(
      'Your library: 1,350 songs, 11 with a known tempo (<1 %), 1,339 still without one.',
    );
    unmount();
    render(<LibrarySummary summary={summary(1350, 0)} />);
    expect(screen.getByTestId('library-summary').textContent).toBe(
      'Your library: 1,350 songs, 0 with a known tempo (0 %), 1,350 still without one.',
    );
  });
});
