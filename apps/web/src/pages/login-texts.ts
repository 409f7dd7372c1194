/** The texts of the login and logout screens (spec §2), word for word. */
export const LOGIN_TEXTS = {
  stillLoading: 'Please wait... Still trying to load page...',
  stillLoggingOut: 'Please wait... Still trying to log out...',
  error:
    'Something went wrong... This is a beta version, so it may fail from time to time. Wait for a while and try to reload page...',
  verifyHeading: 'We need to verify your email address.',
  sending: 'Sending verification email...',
  tooMany:
    'Tried to send a verification email, but there were to many attempts at this moment. Please come back later and try again.',
  sendFailed: 'Sending of verification email failed. Please try again later.',
  sent: 'Verification email sent. Please check your inbox (or spam folder if necessary), and then log in here again.',
  backToLogin: 'Back to login',
  noWebConfig: 'no firebase web config in reply from backend',
} as const;
