// The choices' snackbar stays below a dialog opened while it shows (at 360 px it covered the fix-tempo
// dialog's buttons when the runner opened it again right after saving).
import Dialog from '@mui/material/Dialog';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { SessionContext } from '../session/session-context.ts';
import type { Session } from '../session/user-status.ts';
import { UndoSnackbarProvider, useConfirmChoice } from './UndoSnackbar.tsx';

function SavedThenDialog() {
  const confirm = useConfirmChoice();
  useEffect(() => confirm({ message: 'Tempo saved: 120 BPM.', undo: async () => undefined }), [confirm]);
  return (
    <Dialog open aria-label="Fix the tempo">
      <button type="button">Save tempo</button>
    </Dialog>
  );
}

describe('UndoSnackbar', () => {
  it('shows below a dialog that is open', async () => {
    render(
      <ThemeProvider theme={createTheme()}>
        <QueryClientProvider client={new QueryClient()}>
          <SessionContext.Provider value={{ sudo: null } as unknown as Session}>
            <UndoSnackbarProvider>
              <SavedThenDialog />
            </UndoSnackbarProvider>
          </SessionContext.Provider>
        </QueryClientProvider>
      </ThemeProvider>,
    );
    const message = await screen.findByText('Tempo saved: 120 BPM.');
    const snackbar = message.closest('.MuiSnackbar-root')!;
    const dialog = screen.getByRole('dialog').closest('.MuiDialog-root')!;
    const z = (el: Element) => Number(getComputedStyle(el).zIndex);
    expect(z(snackbar)).toBeGreaterThan(0);
    expect(z(snackbar)).toBeLessThan(z(dialog));
  });
});
