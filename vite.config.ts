import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { tsconfigPaths: true },
  build: {
    target: 'es2022',
    assetsInlineLimit: 0,
    rollupOptions: isSsrBuild ? { input: './server/app.ts' } : undefined,
  },
  server: { hmr: { port: 24678 } },
  plugins: [reactRouter()],
}))
