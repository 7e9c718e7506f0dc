# La ventana del docente alrededor de las vistas: la cabecera, la barra lateral, la página de
# bienvenida, la barra de estado, el interruptor de modo proyector y la lista de atajos de teclado.

## El marco y su página de bienvenida.

app-error-title = Algo salió mal
app-try-again = Reintentar
app-welcome-title = Bienvenida
app-welcome-loading = Cargando tus clases…
app-welcome-choose-class = Elige una clase a la izquierda para ver su progreso.
app-welcome-demo-coming = Se está preparando la clase de demostración: sus estudiantes simulados empiezan en un momento y se abrirá aquí.
app-welcome-host-not-answering = El servidor de tu centro no responde. Revisa su dirección en Ajustes o vuelve a intentarlo cuando regrese la red.
app-welcome-token-refused = El servidor de tu centro rechazó el token. Escribe en Ajustes el token que te dio.
app-welcome-no-classes = Todavía no hay clases en el servidor de tu centro. Crea una a la izquierda o sigue una que el servidor ya tenga.

## La barra lateral.

app-sidebar-classes = Clases
app-sidebar-loading = Cargando…
app-sidebar-no-classes = Todavía no hay clases
app-sidebar-learners = { $count ->
    [one] { $count } estudiante
   *[other] { $count } estudiantes
}
app-sidebar-open-requests = { $count ->
    [one] { $count } petición de ayuda abierta
   *[other] { $count } peticiones de ayuda abiertas
}
app-sidebar-help-desk = Mesa de ayuda
app-sidebar-waiting = { $count ->
    [one] { $count } en espera
   *[other] { $count } en espera
}
app-sidebar-export = Exportar
app-sidebar-read-only = Este servidor es de solo lectura: sus clases se crean donde se ejecuta.
app-sidebar-settings = Ajustes
app-sidebar-diagnostics = Diagnóstico
app-new-class-label = Nueva clase
app-new-class-create = Crear
app-new-class-needs-title = Una clase necesita un título.

## La barra de estado: la conexión con el servidor y la versión de la aplicación.

app-status-connection = Conexión con el servidor
app-status-host-unknown = Servidor: …
app-status-host-not-configured = Servidor: ninguno configurado
app-status-host-connecting = Servidor: conectando
app-status-host-connected = Servidor: conectado
app-status-host-reconnecting-in = Servidor: reconectando en { $seconds } s
app-status-host-reconnecting = Servidor: reconectando
app-status-host-offline = Servidor: sin conexión
app-status-host-token-refused = Servidor: token rechazado
app-status-version = v{ $version }

## Modo proyector.

app-projector-safe-tooltip = Modo proyector ({ $keys })
app-projector-safe-on = Modo proyector: activado
app-projector-safe-off = Modo proyector: desactivado

## La lista de atajos de teclado. Los nombres de las teclas se muestran sin traducir.

app-shortcuts-open = Atajos
app-shortcuts-title = Atajos de teclado
app-shortcuts-close = Cerrar
app-shortcut-key-arrows = Teclas de flecha
app-shortcut-projector-safe = Activar o desactivar el modo proyector
app-shortcut-projector = Mostrar la clase en el proyector
app-shortcut-grid-move = Cuadrícula en vivo: moverse entre celdas
app-shortcut-grid-row-ends = Cuadrícula en vivo: primer o último paso de la fila (con Ctrl: primera o última celda)
app-shortcut-grid-page = Cuadrícula en vivo: diez estudiantes arriba o abajo
app-shortcut-grid-open = Cuadrícula en vivo: abrir la evidencia de la celda
app-shortcut-close = Cerrar el panel de evidencia (o esta lista)
app-shortcut-help = Mostrar esta lista de atajos

## Nombres de teclas, como los imprimen los teclados del idioma.

app-key-ctrl = Ctrl
app-key-shift = Mayús
app-key-home = Inicio
app-key-end = Fin
app-key-page-up = Re Pág
app-key-page-down = Av Pág
app-key-enter = Intro
app-key-escape = Esc
