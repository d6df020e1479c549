// Used by the Prisma CLI (`prisma generate`). The service itself connects through lib/db.
import { defineConfig } from 'prisma/config'

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
})
