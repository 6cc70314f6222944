import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '../lib/api';
import { AuthProvider } from '../lib/auth/auth-provider';
import { AppRoutes } from './app-routes';
import { LiveConnection } from './live-connection';
import { Splash } from './splash';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        // 4xx answers will not change by asking again; network and 5xx might.
        retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  });
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider fallback={<Splash />}>
        <LiveConnection>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </LiveConnection>
      </AuthProvider>
    </QueryClientProvider>
  );
}
