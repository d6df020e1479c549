/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
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
