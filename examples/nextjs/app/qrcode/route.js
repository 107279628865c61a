// A Next.js App Router route handler: GET /qrcode?text=… answers a PNG made by qr-native on
// the libuv threadpool, and says in `x-bot` whether the user agent is a crawler's (a Matcher
// compiled once, when the route is first loaded). next.config.js beside app/ keeps qr-native
// out of Next's bundle.
import { generate, Matcher } from 'qr-native'

const bots = new Matcher(['Googlebot', { pattern: '*bot*', kind: 'wildcard' }])

export const dynamic = 'force-dynamic'

export async function GET (request) {
  const text = new URL(request.url).searchParams.get('text') ?? 'hello'
  const png = await generate(text)
  const bot = bots.test(request.headers.get('user-agent') ?? '')
  return new Response(png, { headers: { 'content-type': 'image/png', 'x-bot': String(bot) } })
}
