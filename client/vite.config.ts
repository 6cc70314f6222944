/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// During `npm run dev` the Rust server runs separately on :8080; everything
// under /api (REST and the WebSocket at /api/v1/ws) goes to it so the browser
// sees one origin, exactly as in production where the server serves dist/.
const API_TARGET = process.env.RINKSIDE_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': {
        target: API_TARGET,
        changeOrigin: true,
        ws: true,
        // The server refuses WebSocket handshakes from foreign origins; to it,
        // the dev server's pages must look like its own.
        configure: (proxy) => {
          proxy.on('proxyReqWs', (proxyReq) => proxyReq.setHeader('origin', API_TARGET));
          proxy.on('proxyReq', (proxyReq) => {
            if (proxyReq.getHeader('origin')) proxyReq.setHeader('origin', API_TARGET);
          });
        },
      },
      '/healthz': { target: API_TARGET },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup-tests.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
