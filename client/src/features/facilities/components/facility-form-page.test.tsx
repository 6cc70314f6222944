import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CreateFacilityPage } from './facility-form-page';
import { FacilityPage } from './facility-page';
import { makeFacility, makePublicUser } from '../../../testing/fixtures';
import { makeFacilityPage } from '../testing';
import { apiError, mockApi, reply } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';

const routes = { route: '/facilities/new', path: '/facilities/new', extraRoutes: [{ path: '/facilities/:id', element: <FacilityPage /> }] };

describe('CreateFacilityPage', () => {
  it('creates a facility with a picked time zone and opens it', async () => {
    const server = mockApi({
      'POST /facilities': (c) => reply(201, makeFacility({ id: 'f-9', ...(c.body as object) })),
      'GET /facilities/f-9': makeFacilityPage({ id: 'f-9', name: 'Lakeside Ice', timezone: 'America/Toronto', viewerRole: 'OWNER' }),
      'GET /facilities/f-9/seasons': { items: [], nextCursor: null },
      'GET /facilities/f-9/teams': { items: [], nextCursor: null },
      'GET /facilities/f-9/followers': { items: [], nextCursor: null },
      'GET /users/u-me': makePublicUser({ id: 'u-me' }),
    });
    const user = userEvent.setup();
    renderWithProviders(<CreateFacilityPage />, routes);

    await user.type(screen.getByTestId('facility-name'), 'Lakeside Ice');
    const tz = screen.getByRole('combobox', { name: /time zone/i });
    await user.click(tz);
    await user.type(tz, 'toron');
    await user.click(await screen.findByRole('option', { name: /America\/Toronto/ }));
    await user.type(screen.getByLabelText(/description/i), 'Two sheets');
    await user.click(screen.getByTestId('create-facility'));

    await waitFor(() => expect(server.callsTo('POST', '/facilities')).toHaveLength(1));
    expect(server.callsTo('POST', '/facilities')[0]?.body).toEqual({
      name: 'Lakeside Ice',
      timezone: 'America/Toronto',
      description: 'Two sheets',
    });
    expect(await screen.findByTestId('facility-page')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Lakeside Ice' })).toBeInTheDocument();
  });

  it('sends a currency when one is picked, and leaves it to the time zone otherwise', async () => {
    const server = mockApi({ 'POST /facilities': apiError(422, 'validation_failed', 'stop here') });
    const user = userEvent.setup();
    renderWithProviders(<CreateFacilityPage />, routes);
    const currency = screen.getByTestId('facility-currency');
    expect(currency).toHaveValue('');
    expect(screen.getByRole('option', { name: 'Set from the time zone' })).toBeInTheDocument();
    await user.type(screen.getByTestId('facility-name'), 'Isstadion');
    await user.selectOptions(currency, 'SEK');
    await user.click(screen.getByTestId('create-facility'));
    await waitFor(() => expect(server.callsTo('POST', '/facilities')).toHaveLength(1));
    expect(server.callsTo('POST', '/facilities')[0]?.body).toMatchObject({ name: 'Isstadion', currency: 'SEK' });
  });

  it('shows the server’s field messages next to the fields', async () => {
    mockApi({
      'POST /facilities': apiError(422, 'validation_failed', 'invalid fields: name', { name: 'is already taken' }),
    });
    const user = userEvent.setup();
    renderWithProviders(<CreateFacilityPage />, routes);
    await user.type(screen.getByTestId('facility-name'), 'Dup');
    await user.click(screen.getByTestId('create-facility'));
    expect(await screen.findByText('Is already taken')).toBeInTheDocument();
    expect(screen.getByTestId('facility-name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('asks for a name before sending anything', async () => {
    const server = mockApi({});
    const user = userEvent.setup();
    renderWithProviders(<CreateFacilityPage />, routes);
    await user.click(screen.getByTestId('create-facility'));
    expect(await screen.findByText('Give the facility a name.')).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });
});
