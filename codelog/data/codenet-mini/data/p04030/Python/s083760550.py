def run():
    col = str(input())
    digits = ""
    for res in col:
        if res in "01":
            digits = digits + res
        elif len(digits) != 0:
            digits = digits[:-1]
    print(digits)
if __name__ == "__main__":
    run()
