import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { count } from '../../status/status-format.ts';

/** "1–25 of 312" with Previous and Next: a server-paged list's page, usable at 360 px. */
export function Pager(props: {
  offset: number;
  shown: number;
  total: number;
  pageSize: number;
  nextOffset: number | null;
  onOffset: (offset: number) => void;
  label: string;
}) {
  const { offset, shown, total, pageSize, nextOffset, onOffset } = props;
  if (total <= pageSize && offset === 0) return null;
  return (
    <Stack
      component="nav"
      aria-label={props.label}
      direction="row"
      useFlexGap
      spacing={1}
      sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}
    >
      <Typography variant="body2" color="text.secondary">
        {shown === 0
          ? `0 of ${count(total)}`
          : `${count(offset + 1)}–${count(offset + shown)} of ${count(total)}`}
      </Typography>
      <Stack direction="row" spacing={1}>
        <Button size="small" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - pageSize))}>
          Previous
        </Button>
        <Button
          size="small"
          disabled={nextOffset === null}
          onClick={() => nextOffset !== null && onOffset(nextOffset)}
        >
          Next
        </Button>
      </Stack>
    </Stack>
  );
}
