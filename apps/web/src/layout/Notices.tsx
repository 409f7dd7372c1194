import { DemoBanner } from '../components/DemoBanner/DemoBanner.tsx';
import { SpotifyPausedNotice } from '../components/SpotifyPausedNotice/SpotifyPausedNotice.tsx';
import { SudoBanner } from '../components/SudoNotice/SudoNotice.tsx';

/**
 * The notices above every page of a signed-in user: sudo mode, demo mode, Spotify paused. Their own
 * chunk (with MUI's Alert): a visitor never sees one, so a visitor's first load does not carry them.
 */
export default function Notices() {
  return (
    <>
      <SudoBanner />
      <DemoBanner />
      <SpotifyPausedNotice />
    </>
  );
}
