'use strict'

// The practice shop through require('robotstxt-engine'), run from the test
// project by tools/dist/test-node.sh.

const check = require('./shop-check.cjs')

check(require('robotstxt-engine'), 'CommonJS', __dirname)
