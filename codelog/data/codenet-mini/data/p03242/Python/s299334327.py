def main():
  h = int(input())
  # output
  print(h-1110)


# output
main()
