def go():
  while True:
    try:
      chars, b = map(int, raw_input().split())
    except EOFError:
      break
    print len(chars + b)


if __name__ == "__main__":
  go()
