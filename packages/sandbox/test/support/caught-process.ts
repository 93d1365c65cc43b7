// Catching a short-lived child process in the act: a watcher scans /proc for a process below
// this one running a program of a given name (with a marker on its command line) and stops it
// (SIGSTOP) as soon as it appears, so its /proc entries can be read at leisure; it is
// continued afterwards.
import { spawn } from 'node:child_process';

const WATCHER = `
  my ($root, $name, $marker) = @ARGV;
  sub parent { open my $f, '<', "/proc/$_[0]/stat" or return 0; my $s = <$f> // ''; $s =~ /\\)\\s+\\S+\\s+(\\d+)/ ? $1 : 0 }
  while (1) {
    opendir my $d, '/proc' or die;
    for my $pid (grep { /^\\d+$/ } readdir $d) {
      open my $c, '<', "/proc/$pid/cmdline" or next;
      my $line = do { local $/; <$c> } // '';
      my ($program) = split /\\0/, $line;
      next unless defined $program && $program =~ m{(?:^|/)\\Q$name\\E$};
      $line =~ tr/\\0/ /;
      next unless index($line, $marker) >= 0;
      my $up = $pid;
      for (1 .. 8) { $up = parent($up); last if $up <= 1 || $up == $root }
      next unless $up == $root;
      kill 'STOP', $pid;
      print "$pid\\n";
      exit 0;
    }
  }
`;

export interface Wanted {
  /** the program's file name, its path on the command line aside */
  name: string;
  /** text its command line holds */
  marker: string;
}

/**
 * Runs `operation` (again, up to `attempts` times, if it ended before its process was seen)
 * until a process of it running the wanted program is caught; `inspect` reads it while it is
 * stopped. Returns the pid caught.
 */
export async function whileRunning(wanted: Wanted, operation: () => Promise<unknown>, inspect: (pid: number) => void, attempts = 30): Promise<number> {
  const watcher = spawn('/usr/bin/perl', ['-e', WATCHER, String(process.pid), wanted.name, wanted.marker], { stdio: ['ignore', 'pipe', 'inherit'] });
  let caught: number | null = null;
  const seen = new Promise<void>((resolve) =>
    watcher.stdout.on('data', (chunk: Buffer) => {
      caught = Number(chunk.toString().trim());
      resolve();
    }),
  );
  try {
    for (let attempt = 0; attempt < attempts && caught === null; attempt++) {
      const running = operation().catch(() => undefined);
      await Promise.race([running, seen]);
      if (caught === null) continue;
      try {
        inspect(caught);
      } finally {
        process.kill(caught, 'SIGCONT');
      }
      await running;
    }
  } finally {
    watcher.kill('SIGKILL');
  }
  if (caught === null) throw new Error(`no ${wanted.name} process was seen`);
  return caught;
}
