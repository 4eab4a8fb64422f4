import { MantineProvider } from '@mantine/core';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';

export function renderWithTheme(element: ReactElement) {
  return render(<MantineProvider>{element}</MantineProvider>);
}
