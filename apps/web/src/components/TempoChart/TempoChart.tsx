// The library's tempo at a glance: songs per BPM, folded into the running octave, with the
// runner's targets drawn over it (bars inside a target coloured, each target's edges marked). This file
// alone imports @mui/x-charts, and the paces page loads it lazily: nobody else's first load carries it.
import type { Target, TempoHistogramReply } from '@pacebeat/contract';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { ChartsReferenceLine } from '@mui/x-charts/ChartsReferenceLine';
import { Fragment } from 'react';
import { count } from '../../status/status-format.ts';

type Histogram = TempoHistogramReply['data'];

/** A target's range folded into the chart's octave (a 75–85 BPM target runs at 150–170 steps/min). */
export function foldedRange(t: Target, fold: { min: number; max: number }) {
  let { min, max } = t.bpms;
  while (min < fold.min) [min, max] = [min * 2, max * 2];
  while (min >= fold.max) [min, max] = [min / 2, max / 2];
  return { min, max: Math.min(max, fold.max) };
}

export default function TempoChart({ histogram, targets }: { histogram: Histogram; targets: Target[] }) {
  const theme = useTheme();
  const { fold } = histogram;
  const counts = new Map(histogram.bins.map((b) => [b.bpm, b.tracks]));
  const bpms = Array.from({ length: fold.max - fold.min }, (_, i) => fold.min + i);
  const ranges = targets.map((t) => ({ t, r: foldedRange(t, fold) }));
  const inTarget = (b: number) => ranges.some(({ r }) => b >= r.min && b < r.max);
  const edges = [...new Set(ranges.flatMap(({ r }) => [Math.floor(r.min)]))].filter((b) => b < fold.max);

  if (histogram.tracks_with_tempo === 0)
    return (
      <Typography color="text.secondary">
        No tempos known yet: the chart fills as Pacebeat finds them.
      </Typography>
    );
  return (
    <Box>
      <BarChart
        height={260}
        margin={{ left: 0, right: 8, top: 16, bottom: 0 }}
        xAxis={[
          {
            id: 'bpm',
            scaleType: 'band',
            data: bpms,
            label: 'BPM (half and double time folded in)',
            tickInterval: (v: number) => v % 10 === 0,
            colorMap: {
              type: 'ordinal',
              values: bpms,
              colors: bpms.map((b) => (inTarget(b) ? theme.palette.primary.main : theme.palette.grey[400])),
            },
          },
        ]}
        yAxis={[{ label: 'Songs', width: 48, tickMinStep: 1, valueFormatter: (v: number) => count(v) }]}
        series={[
          {
            data: bpms.map((b) => counts.get(b) ?? 0),
            label: 'Songs',
            valueFormatter: (v) => `${count(v ?? 0)} songs`,
          },
        ]}
        hideLegend
        slotProps={{ tooltip: { trigger: 'axis' } }}
      >
        {edges.map((b) => (
          <ChartsReferenceLine
            key={b}
            x={b}
            lineStyle={{ strokeDasharray: '4 3', stroke: theme.palette.secondary.main }}
          />
        ))}
      </BarChart>
      {/* A long pace name wraps instead of widening the page (as /paces did at 360 px). */}
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {count(histogram.tracks_with_tempo)} songs with a known tempo; {count(histogram.tracks_without_tempo)}{' '}
        still without one. Coloured bars are inside one of your paces:{' '}
        {ranges.map(({ t, r }, i) => (
          <Fragment key={t.target_id}>
            {i > 0 && '; '}
            <bdi>{t.target}</bdi> ({Math.round(r.min)}–{Math.round(r.max)})
          </Fragment>
        ))}
        .
      </Typography>
    </Box>
  );
}
