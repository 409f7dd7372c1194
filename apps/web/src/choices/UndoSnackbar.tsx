import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { plainMessage } from '../api/plain-message.ts';
import { queryKeys } from '../api/query-keys.ts';
import { useSession } from '../session/session-context.ts';

/** What a choice says once it is saved, and the inverse call that undoes it. */
/** `message` names what was changed; a name in it goes in a `<bdi>`, so its direction stays its own. */
export type Confirmation = { message: ReactNode; undo?: () => Promise<unknown> };

const ConfirmContext = createContext<(c: Confirmation) => void>(() => undefined);

/** Say that a choice is saved, with Undo (under `UndoSnackbarProvider`). */
export function useConfirmChoice(): (c: Confirmation) => void {
  return useContext(ConfirmContext);
}

type Shown = Confirmation & { id: number };
let nextId = 1;

/**
 * The snackbar of a page's choices (a saved tempo, an exclusion, a restore): what was done, and Undo,
 * which calls the inverse API and says whether it worked. It lives above the rows, which a choice may
 * move to another list or page.
 */
export function UndoSnackbarProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const [busy, setBusy] = useState(false);
  const { sudo } = useSession();
  const client = useQueryClient();
  const confirm = useCallback((c: Confirmation) => setShown({ ...c, id: nextId++ }), []);

  async function undo(c: Shown) {
    if (!c.undo) return;
    setBusy(true);
    try {
      await c.undo();
      setShown({ message: 'Undone.', id: nextId++ });
    } catch (error) {
      setShown({ message: `Could not undo: ${plainMessage(error)}`, id: nextId++ });
    } finally {
      setBusy(false);
      void client.invalidateQueries({ queryKey: queryKeys.choices.all(sudo) });
    }
  }

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Snackbar
        key={shown?.id}
        open={shown !== null}
        autoHideDuration={shown?.undo ? 10_000 : 4_000}
        onClose={(_e, reason) => reason !== 'clickaway' && setShown(null)}
        message={shown?.message}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        // Below a dialog opened meanwhile (the fix-tempo dialog again): at 360 px it covered its buttons.
        sx={{ zIndex: (theme) => theme.zIndex.modal - 1 }}
        action={
          shown?.undo && (
            <Button color="inherit" size="small" disabled={busy} onClick={() => void undo(shown)}>
              Undo
            </Button>
          )
        }
      />
    </ConfirmContext.Provider>
  );
}
