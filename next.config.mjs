/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // `npm run dev`: its hot-reload socket also answers pages opened by address, not only as localhost
  allowedDevOrigins: ['127.0.0.1', '::1'],
  experimental: {
    // requests the proxy (proxy.ts) runs for get their body copied for it: at most 64 KiB, as everywhere
    proxyClientMaxBodySize: '64kb',
  },
  // a second build beside the first (e.g. two test runs in one checkout)
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // `npm test` type-checks the whole tree itself (tsc --noEmit, once the build has written Next.js's route
  // types): its build leaves out Next.js's own run of the same check
  typescript: { ignoreBuildErrors: process.env.PAYIN_BUILD_SKIP_TYPE_CHECK === '1' },
  // existing clients of the protocol use these prefixes: the same handlers answer there
  async rewrites() {
    return {
      beforeFiles: [
        { source: '/partner/payin/v1/:path*', destination: '/api/:path*' },
        { source: '/partner/v1/:path*', destination: '/api/:path*' },
      ],
    }
  },
}

export default nextConfig
