// Code that runs INSIDE the QuickJS VM, right after nunjucks' browser build, never in Node.
// The worker evaluates `guestSource`; its value is { compile, run }, which the worker calls
// at most once each per VM. With the slim build (runtime only) there is no compiler, and only
// run is usable. Everything here hardens nunjucks for untrusted templates; the VM itself
// (a fresh WebAssembly instance per evaluation, with interrupt, memory and stack limits) is
// the wall.
//
// Both functions return a primitive string, so reading the answer never runs template code:
//   compile(source)                                   -> "C" + generated JavaScript
//   run(code, dataJson, outputChars, renderDepth,
//       defaultLocale, defaultTimeZone)               -> "H" + html
//   either, on failure -> "E" + code + ":" + line + ":" + column (1-based, may be empty)
//                          + ":" + name (missing data only: the variable, may be empty)
//                          + ":" + kind (which porting fix applies: "loader", "filter.upper"...;
//                          letters, digits and dots only, may be empty; see fixes.ts)
// The generated JavaScript depends on the source alone (limits are read at run time), which
// lets the worker cache it by a hash of the source.

function guest() {
  'use strict';

  var nj = globalThis.nunjucks;
  delete globalThis.nunjucks;
  // The host's formatter and code drawer (sandbox-worker.mjs), reachable from the formatting
  // and code filters alone.
  var hostFormat = globalThis.svcFormat;
  delete globalThis.svcFormat;
  var hostCode = globalThis.svcCode;
  delete globalThis.svcCode;
  var runtime = nj.runtime;
  var lib = nj.lib;
  var hasCompiler = typeof (nj.compiler && nj.compiler.Compiler) === 'function';

  // range() longer than this can never finish inside the work budget: refuse it up front
  // instead of first allocating a huge array.
  var RANGE_MAX = 100000;

  // Per-evaluation state; a VM serves exactly one evaluation.
  // filterAt: the line and column (0-based) of the filter running now.
  var job = { fault: null, depth: 0, renderDepth: 0, data: null, defaults: { locale: '', timeZone: '' }, filterAt: null };

  // Deterministic "random" filter: a fixed-seed xorshift, fresh in every VM.
  var seed = 0x2545f491;
  Math.random = function random() {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };

  function oneBased(value) {
    return typeof value === 'number' && value >= 0 ? value + 1 : undefined;
  }

  // Records why evaluation stopped, then unwinds. Nunjucks re-wraps thrown errors on the way
  // out, so the code travels in `job.fault`, not in the error object.
  function raise(code, lineno0, colno0, name, kind) {
    job.fault = { code: code, line: oneBased(lineno0), column: oneBased(colno0), name: name, kind: kind };
    throw new Error(code);
  }

  var env = new nj.Environment([], { autoescape: true, throwOnUndefined: true, dev: true });

  // Nunjucks' Frame.set walks dotted names through inherited properties, so a name such as
  // "a.__proto__.x" (reachable from string-literal set targets and macro names) writes to
  // Object.prototype, at compile time as well as at run time. Walk own properties only.
  var hasOwn = Object.prototype.hasOwnProperty;
  runtime.Frame.prototype.set = function (name, value, resolveUp) {
    var parts = name.split('.');
    if (resolveUp) {
      var owner = this.resolve(parts[0], true);
      if (owner) {
        owner.set(name, value);
        return;
      }
    }
    var target = this.variables;
    for (var index = 0; index < parts.length - 1; index += 1) {
      var part = parts[index];
      if (!hasOwn.call(target, part) || !target[part]) target[part] = {};
      target = target[part];
    }
    target[parts[parts.length - 1]] = value;
  };

  // --- compile-time hooks -------------------------------------------------------------

  if (hasCompiler) {
    installCompilerHooks(nj.compiler.Compiler.prototype);
    installLexerFastPath(Object.getPrototypeOf(nj.lexer.lex('')));
  }

  // The lexer moves one character at a time through several method calls, which in QuickJS
  // makes plain text (CSS, inline images) cost as much work as tags. Same contract, but runs of
  // characters are found by a native sticky regex and skipped in one step.
  function installLexerFastPath(tokenizerProto) {
    var runs = Object.create(null);
    function runPattern(breakOnMatch, charString) {
      var key = (breakOnMatch ? '^' : '=') + charString;
      if (!runs[key]) {
        var set = charString.replace(/[\\\]^-]/g, '\\$&');
        runs[key] = new RegExp(breakOnMatch ? '[^' + set + ']*' : '[' + set + ']*', 'y');
      }
      return runs[key];
    }
    tokenizerProto._extractMatching = function (breakOnMatch, charString) {
      if (this.isFinished()) return null;
      var pattern = runPattern(breakOnMatch, charString);
      pattern.lastIndex = this.index;
      var run = pattern.exec(this.str)[0];
      if (run.length === 0) return '';
      this.index += run.length;
      var lastBreak = run.lastIndexOf('\n');
      if (lastBreak === -1) {
        this.colno += run.length;
      } else {
        for (var at = run.indexOf('\n'); at !== -1; at = run.indexOf('\n', at + 1)) this.lineno += 1;
        this.colno = run.length - lastBreak - 1;
      }
      return run;
    };
  }

  function installCompilerHooks(compilerProto) {
    // No loaders: a stateless template cannot name other templates.
    function refuseLoader(node) {
      raise('template_syntax_error', node.lineno, node.colno, undefined, 'loader');
    }
    compilerProto.compileInclude = refuseLoader;
    compilerProto.compileImport = refuseLoader;
    compilerProto.compileFromImport = refuseLoader;
    compilerProto.compileExtends = refuseLoader;

    // Nunjucks' own output, with the name of each value passed to ensureDefined so missing data
    // names its variable. Every output statement then checks the length of the buffer it wrote
    // to (root output, macro bodies, captures), so a runaway loop stops at the output limit
    // instead of exhausting memory.
    compilerProto.compileOutput = function (node, frame) {
      var compiler = this;
      node.children.forEach(function (child) {
        if (child instanceof nj.nodes.TemplateData) {
          if (child.value) {
            compiler._emit(compiler.buffer + ' += ');
            compiler.compileLiteral(child, frame);
            compiler._emitLine(';');
          }
          return;
        }
        compiler._emit(compiler.buffer + ' += runtime.suppressValue(runtime.ensureDefined(');
        compiler.compile(child, frame);
        compiler._emit(',' + node.lineno + ',' + node.colno + ',' + JSON.stringify(nameOf(child)) + '), env.opts.autoescape);\n');
      });
      this._emitLine('if (' + this.buffer + '.length > runtime.svcOutputChars) { runtime.svcOutputLimit(); }');
    };

    // The name callWrap is given for a call of an undefined function.
    compilerProto._getNodeName = nameOf;

    // Nunjucks lexes 1e12 as a variable name (so range(0, 1e12) silently became range(0)):
    // read <digits>e<digits> as a number, and refuse any other name starting with a digit.
    var compileSymbol = compilerProto.compileSymbol;
    compilerProto.compileSymbol = function (node, frame) {
      if (/^[0-9]/.test(node.value)) {
        if (!/^[0-9]+e[0-9]+$/i.test(node.value)) raise('template_syntax_error', node.lineno, node.colno, undefined, 'digit');
        this._emit(String(Number(node.value)));
        return;
      }
      compileSymbol.call(this, node, frame);
    };

    // Filters go through one guarded call that knows the filter's position; unknown filter
    // names are refused at compile time with their line and column.
    compilerProto.compileFilter = function (node, frame) {
      var name = node.name;
      this.assertType(name, nj.nodes.Symbol);
      if (!Object.prototype.hasOwnProperty.call(env.filters, name.value)) {
        raise('template_syntax_error', name.lineno, name.colno, undefined, 'unknownfilter');
      }
      var input = node.args.children[0];
      this._emit('runtime.svcFilter(env, ' + JSON.stringify(name.value) + ', ' + name.lineno + ', ' + name.colno + ', ' + JSON.stringify(input ? nameOf(input) : '') + ', context, ');
      this._compileAggregate(node.args, frame);
      this._emit(')');
    };
  }

  // The readable name of an expression that can be undefined: a variable and its members
  // written as identifiers or whole-number indexes (customer.name, items[0].price); any other
  // expression has none (""). Only these characters can reach an error message.
  function nameOf(node) {
    var name = '';
    if (node instanceof nj.nodes.Symbol) name = /^[A-Za-z_$][\w$]*$/.test(node.value) ? node.value : '';
    else if (node instanceof nj.nodes.LookupVal && node.val instanceof nj.nodes.Literal) {
      var target = nameOf(node.target);
      var key = node.val.value;
      if (target !== '' && typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) name = target + '.' + key;
      else if (target !== '' && typeof key === 'number' && key >= 0 && key % 1 === 0) name = target + '[' + key + ']';
    }
    return name.length <= 100 ? name : '';
  }

  // --- run-time hooks -----------------------------------------------------------------

  runtime.svcOutputChars = Infinity;
  runtime.svcOutputLimit = function () {
    raise('template_output_limit');
  };

  // A single value longer than the whole output allowance fails before it is escaped
  // (escaping a multi-megabyte string would otherwise burn the work budget first).
  var suppressValue = runtime.suppressValue;
  runtime.suppressValue = function (value, autoescape) {
    if (value !== null && value !== undefined && value.length > runtime.svcOutputChars) raise('template_output_limit');
    return suppressValue(value, autoescape);
  };

  // Only undefined is missing data; null (a JSON value) renders as an empty string.
  runtime.ensureDefined = function (value, lineno0, colno0, name) {
    if (value === undefined) raise('template_missing_data', lineno0, colno0, name, 'value');
    return value;
  };

  var callWrap = runtime.callWrap;
  runtime.callWrap = function (fn, name, context, args) {
    if (fn === undefined) raise('template_missing_data', undefined, undefined, name, 'call');
    return callWrap(fn, name, context, args);
  };

  var makeMacro = runtime.makeMacro;
  runtime.makeMacro = function (argNames, kwargNames, func) {
    var macro = makeMacro(argNames, kwargNames, func);
    return function () {
      if (job.depth >= job.renderDepth) raise('template_depth_limit');
      job.depth += 1;
      try {
        return macro.apply(this, arguments);
      } finally {
        job.depth -= 1;
      }
    };
  };

  var range = env.globals.range;
  env.globals.range = function (start, stop, step) {
    var from = stop === undefined ? 0 : start;
    var to = stop === undefined ? start : stop;
    var by = stop === undefined || !step ? 1 : step;
    var count = (to - from) / by;
    if (count > RANGE_MAX) raise('template_work_limit');
    return range.apply(this, arguments);
  };

  function isText(value) {
    return value === null || typeof value === 'string' || value instanceof runtime.SafeString;
  }
  function isNumeric(value) {
    return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && isFinite(Number(value)));
  }
  function isList(value) {
    return Array.isArray(value);
  }
  function isListOrText(value) {
    return Array.isArray(value) || typeof value === 'string' || value instanceof runtime.SafeString;
  }
  function isMapping(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof runtime.SafeString);
  }
  // Inputs each built-in filter accepts; the others take anything, and any TypeError a
  // filter throws still counts as invalid input.
  var inputRules = Object.create(null);
  ['capitalize', 'center', 'indent', 'lower', 'nl2br', 'striptags', 'title', 'trim', 'truncate', 'upper', 'urlize', 'wordcount'].forEach(function (name) {
    inputRules[name] = isText;
  });
  ['abs', 'round'].forEach(function (name) {
    inputRules[name] = isNumeric;
  });
  ['batch', 'groupby', 'join', 'random', 'reject', 'rejectattr', 'select', 'selectattr', 'slice', 'sort', 'sum'].forEach(function (name) {
    inputRules[name] = isList;
  });
  ['first', 'last', 'reverse'].forEach(function (name) {
    inputRules[name] = isListOrText;
  });
  inputRules.dictsort = isMapping;

  runtime.svcFilter = function (env, name, lineno0, colno0, inputName, context) {
    var args = Array.prototype.slice.call(arguments, 6);
    job.filterAt = [lineno0, colno0];
    var rule = inputRules[name];
    if (rule) {
      if (args[0] === undefined) raise('template_missing_data', lineno0, colno0, inputName, 'filter.' + name);
      if (!rule(args[0])) raise('template_invalid_filter_input', lineno0, colno0, undefined, 'filter.' + name);
    }
    var filter = env.getFilter(name);
    try {
      return filter.apply(context, args);
    } catch (error) {
      if (job.fault === null && (error instanceof TypeError || error instanceof lib.TemplateError)) {
        raise('template_invalid_filter_input', lineno0, colno0, undefined, 'filter.' + name);
      }
      throw error;
    }
  };

  installFormattingFilters();
  installCodeFilters();

  // --- formatting filters (numbers, money, dates) on the host's ICU ----------------------

  // Each filter's arguments become one options object: positional ones by the names listed,
  // keyword arguments and plain objects by their own keys. Values are strings of at most
  // OPTION_CHARS characters, numbers or booleans; the host checks names and values again.
  var OPTION_CHARS = 64;
  var OPTION_COUNT = 16;

  function installFormattingFilters() {
    var positional = {
      number: ['locale'],
      percent: ['locale'],
      currency: ['currency', 'locale'],
      date: ['format', 'locale'],
      time: ['format', 'locale'],
      datetime: ['format', 'locale'],
      relative: ['unit', 'locale'],
    };
    Object.keys(positional).forEach(function (kind) {
      inputRules[kind] = isPresent;
      env.addFilter(kind, function (input) {
        var options = formatOptions(Array.prototype.slice.call(arguments, 1), positional[kind]);
        return formatOnHost(kind, input, options);
      });
    });
  }

  function isPresent() {
    return true;
  }

  function filterFault(code, kind) {
    var at = job.filterAt || [];
    raise(code, at[0], at[1], undefined, kind);
  }

  function formatOptions(args, names) {
    // no prototype: a "__proto__" key is an option like any other, and refused by the host
    var options = Object.create(null);
    var count = 0;
    var next = 0;
    function add(name, value) {
      if (value === undefined) filterFault('template_missing_data', 'argument');
      if (value instanceof runtime.SafeString) value = String(value);
      var plain = (typeof value === 'string' && value.length <= OPTION_CHARS && value.indexOf('\u0000') === -1) || typeof value === 'number' || typeof value === 'boolean';
      count += 1;
      if (!plain || count > OPTION_COUNT || hasOwn.call(options, name)) throw new TypeError('invalid formatting option');
      options[name] = value;
    }
    args.forEach(function (arg) {
      if (isMapping(arg)) {
        Object.keys(arg).forEach(function (name) {
          if (name !== '__keywords') add(name, arg[name]);
        });
      } else {
        if (next >= names.length) throw new TypeError('too many arguments');
        add(names[next], arg);
        next += 1;
      }
    });
    return options;
  }

  // The template's argument, else the source's <meta name="svc-...">, else the data's
  // top-level field, else the fallback.
  function takeDefault(options, name, metaValue, fallback) {
    var value = options[name];
    delete options[name];
    if (value !== undefined) return value;
    if (metaValue !== '') return metaValue;
    var data = job.data;
    if (data !== null && typeof data === 'object' && hasOwn.call(data, name) && typeof data[name] === 'string' && data[name] !== '') return data[name];
    return fallback;
  }

  function formatOnHost(kind, input, options) {
    if (input instanceof runtime.SafeString) input = String(input);
    if (!(typeof input === 'number' || (typeof input === 'string' && input.length <= OPTION_CHARS && input.indexOf('\u0000') === -1))) {
      throw new TypeError('invalid formatting input');
    }
    var locale = takeDefault(options, 'locale', job.defaults.locale, 'en-US');
    var timeZone = takeDefault(options, 'timeZone', job.defaults.timeZone, 'UTC');
    if (typeof locale !== 'string' || typeof timeZone !== 'string') throw new TypeError('invalid locale or time zone');
    var answer = hostFormat(kind, input, locale, timeZone, JSON.stringify(options));
    if (answer === 'W') raise('template_work_limit');
    if (typeof answer !== 'string' || answer.charAt(0) !== 'F') throw new TypeError('refused by the formatter');
    return answer.slice(1);
  }

  // --- barcodes and QR codes, drawn on the host (@svc/codes) ---------------------------

  // Each filter's arguments become one options object as the formatting filters' do; the
  // host checks names, types and values, and the input, and answers the SVG, marked safe.
  function installCodeFilters() {
    var positional = { qrcode: ['size'], barcode: ['kind', 'size'], epc_qr: ['size'], swiss_qr: ['size'] };
    Object.keys(positional).forEach(function (name) {
      inputRules[name] = isPresent;
      env.addFilter(name, function (input) {
        var options = formatOptions(Array.prototype.slice.call(arguments, 1), positional[name]);
        var value;
        if (name === 'epc_qr' || name === 'swiss_qr') {
          if (!isMapping(input)) throw new TypeError('a payment object is expected');
          value = JSON.stringify(input);
        } else {
          if (input instanceof runtime.SafeString) input = String(input);
          if (typeof input === 'number' && isFinite(input)) input = String(input);
          if (typeof input !== 'string') throw new TypeError('text is expected');
          value = input;
        }
        // strings leave the VM as C strings: one holding a NUL would arrive cut short
        if (value.indexOf('\u0000') !== -1) throw new TypeError('a NUL character');
        var answer = hostCode(name, value, JSON.stringify(options));
        if (answer === 'W') raise('template_work_limit');
        // refused by the code: the host keeps its reason for the outcome
        if (typeof answer !== 'string' || answer.charAt(0) !== 'S') filterFault('template_invalid_filter_input', 'code');
        return runtime.markSafe(answer.slice(1));
      });
    });
  }

  // --- classification -----------------------------------------------------------------

  function describe(error) {
    try {
      return String(error && error.name) + ': ' + String(error && error.message);
    } catch (ignored) {
      return '';
    }
  }

  function endOfSource(source) {
    var lastBreak = source.lastIndexOf('\n');
    var line = 1;
    for (var index = source.indexOf('\n'); index !== -1; index = source.indexOf('\n', index + 1)) line += 1;
    return { line: line, column: source.length - lastBreak };
  }

  // phase: "parse" (nunjucks parser and compiler; positions already 1-based),
  // "codegen" (QuickJS compiling the generated code; no template position),
  // "render" (positions from nunjucks' run-time bookkeeping, 0-based).
  function failure(error, phase, source) {
    var code = phase === 'render' ? 'template_evaluation_error' : 'template_syntax_error';
    var line;
    var column;
    var name = '';
    var kind = '';
    try {
      if (job.fault !== null) {
        code = job.fault.code;
        line = job.fault.line;
        column = job.fault.column;
        if (code === 'template_missing_data' && typeof job.fault.name === 'string') name = job.fault.name;
        if (typeof job.fault.kind === 'string' && /^[a-z0-9.]{1,40}$/.test(job.fault.kind)) kind = job.fault.kind;
      } else {
        var text = describe(error);
        if (/stack overflow/.test(text)) code = 'template_depth_limit';
        // Strings are ropes in QuickJS: doubling one 64 times hits the length cap ("string too long"), not memory.
        else if (/out of memory|string too long|invalid array length/.test(text)) code = 'template_work_limit';
      }
      if (line === undefined && error && typeof error.lineno === 'number') {
        line = phase === 'render' ? oneBased(error.lineno) : error.lineno;
        if (typeof error.colno === 'number') column = phase === 'render' ? oneBased(error.colno) : error.colno;
      }
      if (line === undefined && phase === 'parse' && code === 'template_syntax_error') {
        // The parser reports no position when it runs out of input.
        var end = endOfSource(source);
        line = end.line;
        column = end.column;
      }
    } catch (ignored) {
      // keep what was established
    }
    return 'E' + code + ':' + (line === undefined ? '' : line) + ':' + (column === undefined ? '' : column) + ':' + name + ':' + kind;
  }

  function compile(source) {
    if (!hasCompiler) return 'Etemplate_evaluation_error::';
    try {
      return 'C' + nj.compiler.compile(source, env.asyncFilters, env.extensionsList, 'template', env.opts);
    } catch (error) {
      return failure(error, 'parse', source);
    }
  }

  // The template built from the code of the last run: a VM kept for an account's next
  // evaluation of the same source (sandbox-worker.mjs) renders it again without building it anew
  // (parsing the generated code costs about as much as rendering a one-page document). A
  // template holds no state of a render: each render makes its own context and frames.
  var built = { code: null, template: null };

  function run(code, dataJson, outputChars, renderDepth, defaultLocale, defaultTimeZone) {
    job.renderDepth = renderDepth;
    job.defaults = { locale: defaultLocale, timeZone: defaultTimeZone };
    runtime.svcOutputChars = outputChars;
    var data = JSON.parse(dataJson);
    job.data = data;
    var template = code === built.code ? built.template : null;
    if (template === null) {
      try {
        template = new nj.Template({ type: 'code', obj: new Function(code)() }, env, 'template', true);
      } catch (error) {
        return failure(error, 'codegen', '');
      }
      built = { code: code, template: template };
    }
    var html;
    try {
      html = template.render(data);
    } catch (error) {
      return failure(error, 'render', '');
    }
    // A limit fault swallowed by template code still fails the evaluation.
    if (job.fault !== null) return failure(null, 'render', '');
    if (typeof html !== 'string') html = '';
    if (html.length > outputChars) return 'Etemplate_output_limit::';
    // The answer leaves the VM as a C string, which ends at the first NUL: output holding one
    // fails rather than arrive cut short.
    if (html.indexOf('\u0000') !== -1) return 'Etemplate_evaluation_error::';
    return 'H' + html;
  }

  return { compile: compile, run: run };
}

export const guestSource = `(${guest.toString()})()`;
