/** The few error kinds routes and services throw; the error handler turns them into the envelope. */
export class AppError extends Error {
  readonly code: string;
  readonly statusCode: number;
  constructor(code: string, statusCode: number, message: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = statusCode;
  }
}

export const badRequest = (message: string, code = 'ValidationError') => new AppError(code, 400, message);
export const unauthorized = (message = 'Not signed in.', code = 'Unauthorized') =>
  new AppError(code, 401, message);
export const forbidden = (message = 'Not allowed.', code = 'Forbidden') => new AppError(code, 403, message);
export const notFound = (message = 'Not found.', code = 'NotFound') => new AppError(code, 404, message);
export const conflict = (message: string, code = 'Conflict') => new AppError(code, 409, message);
export const tooManyRequests = (message: string, code = 'TooManyRequests') =>
  new AppError(code, 429, message);

/** Settings that are wrong, every one listed (thrown by loadConfig, and by parts that find one wrong only in use). */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid environment variables:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}
