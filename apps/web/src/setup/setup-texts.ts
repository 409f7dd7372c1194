// The setup page's texts: what to do in Spotify's dashboard, and what happens on leaving demo mode.
export const SETUP_PAGE = {
  title: 'Connect a real Spotify',
  notAdmin: 'This page is for the admin of this Pacebeat, signed in as themselves.',
  intro:
    'Pacebeat talks to Spotify through an app you register in Spotify’s developer dashboard. It takes about ten minutes: create the app, paste the address below, add your runners, then save the app’s client id here. No restart is needed.',
  demo: 'Pacebeat runs in demo mode: Spotify is simulated, so no real account is used.',
  database: (id: string) => `Pacebeat uses the Spotify app ${id}, saved on this page.`,
  env: (id: string) =>
    `SPOTIFY_CLIENT_ID is set in the environment (${id}), and it wins over this page: change it there and restart Pacebeat.`,
  step1: '1. Create an app in Spotify’s dashboard',
  step1Body:
    'Open the Spotify developer dashboard, sign in with the Spotify account that will own the app, and choose Create app. Any name and description will do; under “Which API/SDKs are you planning to use?” tick Web API.',
  dashboardLink: 'Open the Spotify developer dashboard',
  step2: '2. Paste the redirect URI',
  step2Body:
    'In the same form (or later under Edit settings), add this Redirect URI exactly, then save: it is the address this page is open at. Spotify compares it letter for letter: scheme, address, port and path.',
  otherAddresses:
    'Pacebeat also answers at these addresses; add their redirect URIs too only if someone opens Pacebeat there:',
  onlyIfOpenedAt: (origin: string) => `Needed only if someone opens Pacebeat at ${origin}:`,
  refusedTitle: 'Addresses Spotify will not accept',
  step3: '3. Know the development-mode rules',
  rules: [
    'The Spotify account that owns the app needs Premium; without it Spotify refuses every call.',
    'The app serves at most 5 Spotify accounts.',
    'Each of them, yours included, must be added by hand under User Management (name and the account’s email); Spotify refuses every call for anyone else.',
  ],
  step4: '4. Save the client id',
  step4Body: 'On your app’s page in the dashboard, copy the Client ID (no client secret is needed).',
  clientIdLabel: 'Client ID',
  save: 'Save client id',
  leaveDemo: 'Leave demo mode and use this client id',
  step5: '5. Check with Spotify',
  step5Body:
    'Pacebeat asks Spotify about the redirect URIs, then opens Spotify’s sign-in in a new window: sign in with an account on the user list and accept. Nothing is kept from this check.',
  checkButton: 'Check with Spotify',
  checkNeedsClientId: 'Save a client id first: the check asks the real Spotify about it.',
  checkWaiting: 'Waiting for Spotify’s window: sign in there and accept (or cancel).',
  popupBlocked: 'The browser blocked the window. Open Spotify’s page here instead:',
  notHere: (uri: string) =>
    `This page is open at an address Spotify will not send you back to. Open it at ${uri.replace('/connect/spotify', '/setup/spotify')} to run the check.`,
  denied: 'You cancelled on Spotify’s page, so the account was not checked. Run the check again and accept.',
  otherError:
    'Spotify refused the authorization (its words are below). Check the app’s settings in the dashboard, then run the check again.',
  confirmTitle: 'Leave demo mode?',
  confirmBody: (n: number) =>
    `Pacebeat will talk to the real Spotify from now on. Every runner’s connection to the simulated Spotify ends now (${n} connected): their demo playlists existed only in the simulated Spotify, so they are gone, with their sources, tempo fixes and exclusions. Pacebeat accounts stay; each runner connects their real Spotify next. This page cannot go back to demo mode.`,
  confirmChangeTitle: 'Change the client id?',
  confirmChangeBody: (n: number) =>
    `Spotify’s permissions belong to one app, so every runner’s connection ends now (${n} connected) and each connects again to the new app. Their playlists in Spotify stay.`,
  saved: (ended: number) =>
    ended > 0
      ? `Saved. Pacebeat now talks to the real Spotify; ${ended} simulated or old connection${ended === 1 ? '' : 's'} ended.`
      : 'Saved. Pacebeat now talks to the real Spotify.',
  nextConnect: 'Next: connect your own Spotify account.',
  copy: 'Copy',
  copied: 'Copied',
  copyByHand: 'Select it and copy it by hand.',
  bannerLink: 'Set up a real Spotify',
  menuLink: 'Spotify setup',
  checkWindowTitle: 'Spotify check',
  checkWindowWorking: 'Asking Spotify about your account...',
  checkWindowClose: 'Close this window',
  checkWindowLost:
    'This check was started in another browser or has expired. Start it again from the setup page.',
} as const;
