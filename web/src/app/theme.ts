import { createTheme, type CSSVariablesResolver } from '@mantine/core';

// Mantine's default primary shade is too light for white text at AA contrast; one darker keeps it readable.
// Every dialog's close button has a name for screen readers. Given as plain props, not Modal.extend: that
// import would pull the dialog's code into the sign-in route's bundle.
export const theme = createTheme({
  primaryShade: 8,
  components: { Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } } },
});

const LIGHT_VARIANT_COLORS = ['red', 'green', 'blue', 'yellow', 'orange', 'teal', 'violet', 'gray', 'pink', 'cyan', 'indigo', 'grape', 'lime'];

/**
 * WCAG AA contrast (checked by axe-core in the end-to-end tests): dimmed text, field errors and the text of "light"
 * variants (badges, alerts) are drawn darker than Mantine's mid shade: the darkest shade mixed with black,
 * which keeps the hue and passes 4.5:1 on the tinted background for every colour, yellow included.
 */
export const contrastVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // A field's error message: Mantine's red is 4.0:1 on white; its darkest shade passes.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(LIGHT_VARIANT_COLORS.map((color) => [`--mantine-color-${color}-light-color`, `color-mix(in srgb, var(--mantine-color-${color}-9), black 40%)`])),
  },
  dark: {},
});
