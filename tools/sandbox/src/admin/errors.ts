// An admin request the sandbox refuses: its HTTP status and a plain message.
export class AdminError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}
