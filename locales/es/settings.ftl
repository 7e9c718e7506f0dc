settings-title = Ajustes

## Apariencia

settings-appearance = Apariencia
settings-theme-system = Seguir el sistema
settings-theme-light = Claro
settings-theme-dark = Oscuro
settings-theme-high-contrast = Alto contraste
settings-language = Idioma
settings-language-system = Seguir el sistema

## Servidor de rutas

settings-host-legend = Servidor de rutas
settings-host-demo = El servidor de demostración integrado (una clase simulada en este ordenador)
settings-host-custom = El servidor de mi centro
settings-host-url = Dirección del servidor
settings-host-token = Token
settings-host-token-saved = (guardado; déjalo vacío para conservarlo)
settings-token-in-keyring = El token se guarda en el almacén de credenciales de tu sistema (llavero), no en la base de datos.
settings-token-in-file = Ningún almacén de credenciales del sistema respondió en este ordenador, así que el token se guarda en un archivo que solo tu cuenta de usuario puede leer (junto a la base de datos). Nunca está en la base de datos.
settings-save = Guardar
settings-host-checking = Comprobando el servidor…
settings-host-saved = Guardado. La aplicación sigue ahora este servidor.
settings-save-anyway = Guardar de todos modos
settings-host-classes = Clases de este servidor
settings-host-class-followed = seguida
settings-host-class-follow = Seguir

## Grupo mínimo (k)

settings-k-label = Grupo más pequeño que se muestra en los datos agregados (k, { $min }–{ $max })
settings-k-save = Guardar k
settings-k-saved = { $count ->
    [one] Se ocultan los grupos de menos de { $count } estudiante.
   *[other] Se ocultan los grupos de menos de { $count } estudiantes.
}

## Dónde se guardan los resultados

settings-store-legend = Dónde se guardan los resultados
settings-store-computer = Este ordenador
settings-store-shared = El almacén compartido de mi centro (PostgreSQL)
settings-store-url = Dirección del almacén compartido (sin la contraseña)
settings-store-password = Contraseña
settings-store-note = Los nombres, los borradores y tus propios ajustes se quedan en este ordenador en cualquier caso. La contraseña se guarda en el almacén de credenciales de tu sistema (si no lo hay, en un archivo que solo tu cuenta de usuario puede leer), nunca en la base de datos.
settings-store-connecting = Conectando…
settings-store-save = Guardar dónde se guardan los resultados
settings-store-in-use = Los resultados se guardan en el almacén compartido de { $url }.
settings-store-saved-shared = Guardado: el almacén compartido respondió. La aplicación guardará allí los resultados a partir del próximo inicio.
settings-store-saved-computer = Guardado. La aplicación guardará los resultados en este ordenador a partir del próximo inicio.
settings-store-restart = Reiniciar ahora para usarlo
