import { warmTemplateSandbox, renderTemplate } from '@svc/templating';
const rss = () => Math.round(process.memoryUsage().rss / 1048576);
console.log('start', rss());
warmTemplateSandbox();
await new Promise((r) => setTimeout(r, 3000));
console.log('after warm', rss());
