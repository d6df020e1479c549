// Stylesheets imported for their effect (Next bundles them).
declare module '*.css'
