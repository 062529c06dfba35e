/** Requests and cost per day, drawn by uPlot (requests on the left axis, cost on the right). */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { formatUsd } from '../lib/format.js';

export function UsageChart(props: { data: [number[], number[], number[]] }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const width = () => Math.max(280, el.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 260,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, usd: { auto: true } },
        series: [
          { label: 'Day (UTC)' },
          { label: 'Requests', stroke: '#1f5fbf', width: 2, fill: 'rgba(31, 95, 191, 0.08)' },
          { label: 'Cost', stroke: '#a3470b', width: 2, scale: 'usd', value: (_u, v) => (v === null ? '—' : formatUsd(v)) },
        ],
        axes: [
          {},
          { label: 'Requests', size: 60 },
          { label: 'Cost (USD)', scale: 'usd', side: 1, size: 70, grid: { show: false }, values: (_u, ticks) => ticks.map((t) => formatUsd(t)) },
        ],
      },
      props.data,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 260 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [props.data]);
  return <div ref={host} class="chart" role="img" aria-label="Chart of requests and cost per day; the same figures are in the table below." />;
}
