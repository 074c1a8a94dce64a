/** The app (skeleton): connects and shows the state. */
export async function start(root: HTMLElement): Promise<void> {
  root.dataset.state = "connecting";
  root.textContent = "Huit";
}
