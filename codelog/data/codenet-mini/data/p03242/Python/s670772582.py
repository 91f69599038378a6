# coding: utf-8
def main():

  d = str(input())
  print(d.replace("1", "a").replace("9", "1").replace("a", "9"))


if __name__ == "__main__":

  main()
