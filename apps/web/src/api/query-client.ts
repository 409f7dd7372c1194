import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './client.ts';

/** The app's one QueryClient: a 4xx answer is final, anything else is retried twice. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) =>
          !(isApiError(error) && error.status >= 400 && error.status < 500) && failureCount < 2,
      },
    },
  });
}
