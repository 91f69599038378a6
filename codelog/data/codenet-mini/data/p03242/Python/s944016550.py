def main():
  s = input()
  print(1110-s)


main()
