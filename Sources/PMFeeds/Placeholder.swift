// Placeholder so the module builds before its first real file lands; delete when adding one.
