import { type App, deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';

export interface FirebaseIdentity {
  uid: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

export interface FirebaseVerifier {
  /** Verifies a Firebase ID token (signature, audience, issuer, expiry); throws when it is not valid. */
  verifyIdToken(token: string): Promise<FirebaseIdentity>;
  close(): Promise<void>;
}

/**
 * Firebase ID-token checks through the official Admin SDK. No service account is needed to verify
 * tokens; with FIREBASE_AUTH_EMULATOR_HOST set the SDK accepts the emulator's tokens.
 */
export function createFirebaseVerifier(projectId: string): FirebaseVerifier {
  const app: App = initializeApp(
    { projectId },
    `pacebeat-${projectId}-${Math.random().toString(36).slice(2)}`,
  );
  const auth = getAuth(app);
  return {
    async verifyIdToken(token) {
      const t = await auth.verifyIdToken(token);
      return {
        uid: t.uid,
        email: t.email?.toLowerCase(),
        emailVerified: t.email_verified === true,
        name: typeof t['name'] === 'string' ? (t['name'] as string) : undefined,
      };
    },
    close: () => deleteApp(app),
  };
}
