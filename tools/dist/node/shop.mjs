// The practice shop through import ... from 'robotstxt-engine' (the named
// exports Node finds in the CommonJS package), run from the test project by
// tools/dist/test-node.sh.

import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

import { Robots } from 'robotstxt-engine'

import check from './shop-check.cjs'

check({ Robots }, 'ESM', dirname(fileURLToPath(import.meta.url)))
