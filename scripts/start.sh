#!/usr/bin/env bash
# One command to run the product on its embedded defaults (SQLite and local disk under ./data).
source "$(dirname "$0")/provision.sh"
npm run build
exec npm start
