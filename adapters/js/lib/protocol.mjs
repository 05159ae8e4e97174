// The engine protocol's adapter loop (docs/engine-protocol.md), for node.
//
// One JSON request per line on stdin, exactly one JSON response per line on stdout,
// in order. Whatever a library prints with console.log goes to stderr instead, so it
// cannot corrupt a response. An engine failure is answered as an `error` and the
// adapter carries on; it exits after answering `stop`, or when stdin ends.

import { createInterface } from 'node:readline'

export const PROTOCOL_VERSION = 1

/** Thrown by a handler when the engine cannot express what is asked (a measured reason). */
export class Unsupported extends Error {}

/** Thrown by a read handler when the engine's value has no lossless canonical form. */
export class LossyConversion extends Error {}

/** Thrown when the engine panicked or aborted and only its host survived (a Rust panic
 * trapping a WebAssembly instance): the harness counts the cell as a crash. */
export class Panic extends Error {}

const responses = process.stdout
console.log = console.info = console.debug = console.warn = (...args) => console.error(...args)

/** The response to one request: the handler's answer, or its failure as the protocol says. */
async function answer(handlers, request) {
  try {
    if (request.op === 'stop') return { ok: true }
    return await handlers[request.op](request)
  } catch (error) {
    if (error instanceof Unsupported) return { unsupported: error.message }
    const name = error?.constructor?.name ?? 'Error'
    return { error: { class: name, message: String(error?.message ?? error) } }
  }
}

/** Serve requests until `stop` or the end of stdin. `handlers` maps start, read, write. */
export async function serve(handlers) {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
  for await (const line of lines) {
    if (!line.trim()) continue
    const request = JSON.parse(line)
    const response = await answer(handlers, request)
    await new Promise(resolve => responses.write(JSON.stringify(response) + '\n', resolve))
    if (request.op === 'stop') break
  }
  process.exit(0)
}
