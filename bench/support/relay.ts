// A TCP relay in front of the fake API server that counts the bytes the server sends back (TLS passes through it
// untouched), so a benchmark can print what each command downloaded next to its requests and wall time.
import {connect, createServer, type Socket} from 'node:net'

export interface ByteRelay {
  /** https://127.0.0.1:PORT, to write into the kubeconfig in place of the server's own address. */
  url: string
  /** Bytes the server sent since the last reset. */
  bytes(): number
  reset(): void
  close(): void
}

export async function byteRelay(serverUrl: string): Promise<ByteRelay> {
  let down = 0
  const upstream = new URL(serverUrl)
  const relay = createServer((client: Socket) => {
    const up = connect(Number(upstream.port), upstream.hostname)
    up.on('data', (d: Buffer) => {
      down += d.length
    })
    client.pipe(up)
    up.pipe(client)
    client.on('error', () => up.destroy())
    up.on('error', () => client.destroy())
  })
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', () => r()))
  const port = (relay.address() as {port: number}).port
  return {
    url: `https://127.0.0.1:${port}`,
    bytes: () => down,
    reset: () => {
      down = 0
    },
    close: () => relay.close(),
  }
}
