import { StillLoading } from '../components/StillLoading/StillLoading.tsx';
import { STILL_LOADING_AFTER_MS } from '../timing.ts';
import { useDelayedFlag } from '../session/use-delayed-flag.ts';

/** A page whose code is still on its way: nothing for the first second, then the still-loading line. */
export function PageLoading() {
  const slow = useDelayedFlag(true, STILL_LOADING_AFTER_MS);
  return slow ? <StillLoading text="Please wait... Still trying to load page..." /> : null;
}
