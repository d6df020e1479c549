// GET /popup/v2.js: the checkout popup library (lib/popup/v2.js), a static script merchants' pages load from the
// service.
export { GET } from '@/lib/popup/popup-script'
