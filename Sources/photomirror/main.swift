import PhotoMirror
print("photomirror: under construction")
