// Scalar checks its configuration with zod, which probes once whether it may compile its
// parsers with `new Function`. This page's policy allows no eval, so the probe would only be
// refused (and reported); zod's plain parsers are all the reference needs.
import { z } from 'zod';

z.config({ jitless: true });
