def main():
    total = str(input())
    print(total.replace("1", "9").replace("9", "1"))


main()
