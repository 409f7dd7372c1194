import type { FirebaseWebConfig } from '@pacebeat/contract';
import Box from '@mui/material/Box';
import { useEffect, useRef } from 'react';
import { PRIVACY_URL, TERMS_URL } from '../TermsAndPrivacy/TermsAndPrivacy.tsx';

/** The signed-in Firebase user the page needs: an ID token, and a way to send the verification mail. */
export interface WidgetUser {
  getIdToken(): Promise<string>;
  sendEmailVerification(): Promise<void>;
  signOut(): Promise<void>;
}

export interface FirebaseWidgetProps {
  webConfig: FirebaseWebConfig;
  /** Set in tests: the Firebase Auth emulator's URL. */
  emulatorUrl?: string;
  onSignedIn: (user: WidgetUser) => void;
  onError: (error: unknown) => void;
}

const APP_NAME = 'pacebeat';
const STYLE_ID = 'firebaseui-css';

/**
 * FirebaseUI's stylesheet, without its `@import` of Google Fonts: the app already has its fonts, and an
 * unreachable font server (offline, or a strict network) must not break the sign-in widget.
 */
function installCss(css: string) {
  if (document.getElementById(STYLE_ID)) return;
  const style = document.createElement('style');
  style.id = STYLE_ID;
  style.textContent = css.replace(/@import\s+(url\()?["'][^"']*["']\)?[^;]*;/g, '');
  document.head.append(style);
}

/**
 * The FirebaseUI sign-in widget (spec §2): popup flow, email/password without a required display
 * name plus one federated provider (Google), links to terms and privacy, English, session-only
 * persistence. Firebase and FirebaseUI load only on this screen.
 */
export function FirebaseWidget({ webConfig, emulatorUrl, onSignedIn, onError }: FirebaseWidgetProps) {
  const container = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onSignedIn, onError });
  useEffect(() => {
    handlers.current = { onSignedIn, onError };
  });

  useEffect(() => {
    let cancelled = false;
    let ui: { reset(): void } | undefined;
    (async () => {
      const [{ default: firebase }, firebaseui, , { default: css }] = await Promise.all([
        import('firebase/compat/app'),
        import('firebaseui'),
        import('firebase/compat/auth'),
        import('firebaseui/dist/firebaseui.css?raw'),
      ]);
      installCss(css);
      if (cancelled || !container.current) return;
      const app =
        firebase.apps.find((a) => a.name === APP_NAME) ?? firebase.initializeApp(webConfig, APP_NAME);
      const auth = app.auth();
      if (emulatorUrl && !auth.emulatorConfig) auth.useEmulator(emulatorUrl);
      auth.languageCode = 'en';
      await auth.setPersistence(firebase.auth.Auth.Persistence.SESSION);
      if (cancelled) return;
      const instance =
        firebaseui.auth.AuthUI.getInstance(APP_NAME) ?? new firebaseui.auth.AuthUI(auth, APP_NAME);
      ui = instance;
      instance.start(container.current, {
        signInFlow: 'popup',
        signInOptions: [
          { provider: firebase.auth.EmailAuthProvider.PROVIDER_ID, requireDisplayName: false },
          firebase.auth.GoogleAuthProvider.PROVIDER_ID,
        ],
        tosUrl: TERMS_URL,
        privacyPolicyUrl: PRIVACY_URL,
        credentialHelper: firebaseui.auth.CredentialHelper.NONE,
        callbacks: {
          signInSuccessWithAuthResult(result: {
            user: { getIdToken(): Promise<string>; sendEmailVerification(): Promise<void> } | null;
          }) {
            const user = result.user;
            if (user) {
              handlers.current.onSignedIn({
                getIdToken: () => user.getIdToken(),
                sendEmailVerification: () => user.sendEmailVerification(),
                signOut: () => auth.signOut(),
              });
            }
            return false; // no redirect: the page calls the backend
          },
          signInFailure(error: unknown) {
            handlers.current.onError(error);
            return Promise.resolve();
          },
        },
      });
    })().catch((error: unknown) => {
      if (!cancelled) handlers.current.onError(error);
    });
    return () => {
      cancelled = true;
      ui?.reset();
    };
  }, [webConfig, emulatorUrl]);

  return <Box ref={container} id="firebaseui-auth-container" data-testid="firebaseui" />;
}
