// The installed version of an npm package: what a `start` answer reports as the
// version of the library under test.

import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/** The version in `name`'s own package.json, found upwards from its resolved entry point
 * (a package's "exports" may hide its package.json from `require.resolve`). */
export function packageVersion (name) {
  const entry = require.resolve(name)
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json')
    if (!fs.existsSync(file)) continue
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8'))
    if (pkg.name === name) return pkg.version
  }
  throw new Error(`no package.json of ${name} above ${entry}`)
}
