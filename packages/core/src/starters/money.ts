/**
 * A nunjucks macro the money starters share: an amount with two decimals and a thousands
 * separator (up to 999,999,999.99), since the sandbox's nunjucks has no number formatting.
 */
export const moneyMacro = `{%- macro money(value, symbol) -%}
{%- set cents = (value * 100) | round | int -%}
{%- set whole = (cents / 100) | int -%}
{%- set rest = cents % 100 -%}
{%- set millions = (whole / 1000000) | int -%}
{%- set thousands = ((whole % 1000000) / 1000) | int -%}
{%- set units = whole % 1000 -%}
{{ symbol }}
{%- if millions > 0 -%}{{ millions }},{%- if thousands < 100 %}0{% endif %}{%- if thousands < 10 %}0{% endif %}{{ thousands }},
{%- elif thousands > 0 -%}{{ thousands }},{%- endif -%}
{%- if whole >= 1000 and units < 100 %}0{% endif %}{%- if whole >= 1000 and units < 10 %}0{% endif %}{{ units }}.{% if rest < 10 %}0{% endif %}{{ rest }}
{%- endmacro -%}`;
