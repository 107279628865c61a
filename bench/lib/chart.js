'use strict'
// Horizontal bar charts as standalone SVG: a title, one bar per value, its label and its
// number. A log scale keeps a 50× difference readable.

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/**
 * bars: [{ label, value, highlight? }]; unit: text after each value; log: log10 scale.
 * Returns the SVG document.
 */
function barChart ({ title, subtitle = '', bars, unit = '', log = false }) {
  const width = 760
  const labelWidth = 250
  const barArea = width - labelWidth - 140
  const rowHeight = 30
  const top = subtitle ? 62 : 44
  const height = top + bars.length * rowHeight + 16
  const max = Math.max(...bars.map((b) => b.value))
  const min = Math.min(...bars.map((b) => b.value))
  const scale = (v) => {
    if (!log) return (v / max) * barArea
    const lo = Math.log10(Math.max(min / 2, 1e-9))
    return ((Math.log10(v) - lo) / (Math.log10(max) - lo)) * barArea
  }
  const fmt = (v) => (v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(v >= 10 ? 1 : 2))
  const rows = bars.map((b, i) => {
    const y = top + i * rowHeight
    const w = Math.max(2, scale(b.value))
    return `<text x="${labelWidth - 10}" y="${y + 19}" text-anchor="end">${esc(b.label)}</text>` +
      `<rect x="${labelWidth}" y="${y + 5}" width="${w.toFixed(1)}" height="${rowHeight - 10}" fill="${b.highlight ? '#d9480f' : '#868e96'}"/>` +
      `<text x="${labelWidth + w + 8}" y="${y + 19}">${esc(fmt(b.value) + (unit ? ' ' + unit : ''))}</text>`
  }).join('\n')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="13">
<rect width="100%" height="100%" fill="#ffffff"/>
<text x="16" y="26" font-size="16" font-weight="bold">${esc(title)}</text>
${subtitle ? `<text x="16" y="46" fill="#495057">${esc(subtitle)}</text>` : ''}
${rows}
</svg>
`
}

module.exports = { barChart }
